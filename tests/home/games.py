"""Each demo played to its end as a visitor with no AI plays it, for the tests of its end screens."""


async def finish_geography(page) -> None:
    """Answer all ten questions wrongly by typing; return once the result shows."""
    for round_number in range(1, 11):
        await page.get_by_label("Your answer").fill("Atlantis")
        await page.get_by_role("button", name="Answer", exact=True).click()
        await page.locator(f"#track li[data-state]:nth-child({round_number})").wait_for(timeout=15000)
    await page.locator("#result").wait_for(timeout=15000)


async def finish_twentyq(page) -> None:
    """Let the site think of something and guess wrongly twenty times; return once it reveals it."""
    await page.locator("#new-site-thinks").click()
    for turn in range(1, 21):
        await page.get_by_label("Your guess").fill(f"nothing-{turn}")
        await page.get_by_role("button", name="Guess", exact=True).click()
        await page.locator(f"#history li:nth-child({turn})").wait_for(timeout=15000)
    await page.locator("#reveal").wait_for(timeout=15000)
