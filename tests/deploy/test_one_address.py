"""
One address cannot take the deployment down: bodies too large for a process,
and bodies on methods nginx would pass to another process, are refused by
nginx itself, while a visitor from the same address loads pages without a 502
or 504. Through the production-like cluster (DEBUG off, two processes, nginx).
"""

import asyncio

import pytest

from tests import loopback

# make test's --dist loadgroup runs the module in one worker: production_cluster starts once.
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("deploy-production")]

MB = 1024 * 1024
# Past a process's limit (DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MiB) and within nginx's old one (8 MB).
OVERSIZED = [b"x" * (3 * MB), b"x" * (7 * MB)]


async def send_oversized_bodies(cluster, stop: asyncio.Event, statuses: list[int]) -> None:
    """Send 3 and 7 MB bodies by GET and by POST, one after another, until ``stop``."""
    async with loopback.client(cluster.url, timeout=30) as attacker:
        while not stop.is_set():
            for body in OVERSIZED:
                for method in ("GET", "POST"):
                    response = await attacker.request(method, "/geography/", content=body)
                    statuses.append(response.status_code)


async def test_oversized_bodies_from_one_address_never_cost_a_visitor_a_page(production_cluster):
    cluster = production_cluster
    stop, refused = asyncio.Event(), []
    attackers = [asyncio.create_task(send_oversized_bodies(cluster, stop, refused)) for _ in range(2)]
    try:
        async with loopback.client(cluster.url, timeout=30) as visitor:
            pages = []
            for _ in range(60):
                pages.append((await visitor.get("/bookshop/")).status_code)
                await asyncio.sleep(0)  # let the attackers' requests interleave with the visitor's
    finally:
        stop.set()
        await asyncio.gather(*attackers)
    assert set(pages) == {200}, pages
    assert len(refused) >= 8, "the attackers sent too few bodies to prove anything"
    # 413 past the size, 400 for a body on a GET (whichever nginx checks first): nginx's, not a process's.
    assert set(refused) <= {400, 413}, refused


async def test_a_body_on_a_get_is_refused_by_nginx_and_a_post_within_the_limit_reaches_a_process(
    production_cluster,
):
    async with loopback.client(production_cluster.url, timeout=30) as client:
        with_body = await client.request("GET", "/bookshop/", content=b"x" * MB)
        empty = await client.request("GET", "/bookshop/", headers={"content-length": "0"})
        post = await client.post("/geography/answer/", content=b"x" * (2 * MB))
    assert with_body.status_code == 400 and with_body.headers["server"] == "nginx"
    assert empty.status_code == 200
    assert post.status_code == 403  # Django's CSRF refusal: the process read it and answered


async def test_nginx_answers_name_no_version_and_static_files_carry_nosniff(production_cluster):
    async with loopback.client(production_cluster.url, timeout=30) as client:
        page = await client.get("/bookshop/")
        script = await client.get("/static/staticfiles.json")
    assert page.headers["server"] == script.headers["server"] == "nginx"
    assert script.status_code == 200
    assert script.headers["x-content-type-options"] == "nosniff"
