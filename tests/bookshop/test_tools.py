"""The bookshop's MCP tools, called through the SDK's in-memory client."""

import pytest
from asgiref.sync import async_to_sync
from mcp import Client

from mcp_server.server import build_server


def call(name, arguments=None):
    """Call one tool on a fresh server and return the CallToolResult."""

    async def run():
        async with Client(build_server()) as client:
            return await client.call_tool(name, arguments or {})

    return async_to_sync(run)()


def text(result):
    return "\n".join(part.text for part in result.content)


def test_search_books_by_mood_returns_only_books_with_that_mood(catalog):
    result = call("search_books", {"mood": "calm", "limit": 20})
    assert not result.is_error
    books = result.structured_content["books"]
    assert books
    assert all("calm" in book["moods"] for book in books)


def test_search_books_by_text_matches_title_and_author(catalog):
    result = call("search_books", {"query": "tolkien"})
    titles = [book["title"] for book in result.structured_content["books"]]
    assert "The Hobbit" in titles
    assert "The Hobbit" in text(result)


def test_search_books_combines_mood_and_every_word(catalog):
    epic = call("search_books", {"mood": "epic", "query": "Frank Herbert"})
    assert [book["title"] for book in epic.structured_content["books"]] == ["Dune"]
    calm = call("search_books", {"mood": "calm", "query": "Frank Herbert"})
    assert calm.structured_content["books"] == []


def test_search_books_respects_the_limit(catalog):
    result = call("search_books", {"limit": 3})
    assert len(result.structured_content["books"]) == 3


def test_search_books_with_no_match_says_how_to_widen_the_search(catalog):
    result = call("search_books", {"query": "zzzqqq"})
    assert not result.is_error
    assert result.structured_content == {"books": []}
    assert "No books match" in text(result)


def test_search_books_unknown_mood_is_a_tool_error_listing_the_moods(catalog):
    result = call("search_books", {"mood": "grumpy"})
    assert result.is_error
    assert "grumpy" in text(result)
    assert "calm" in text(result)


@pytest.mark.parametrize(
    "arguments, named",
    [
        ({"limit": 0}, "limit"),
        ({"limit": 500}, "limit"),
        ({"limit": "five"}, "limit"),
        ({"mood": 7}, "mood"),
        ({"query": "x" * 201}, "query"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_search_books_bad_argument_is_a_tool_error_naming_it(catalog, arguments, named):
    result = call("search_books", arguments)
    assert result.is_error
    assert "Invalid arguments for search_books" in text(result)
    assert named in text(result)


def test_get_book_returns_the_facts_of_one_book(catalog):
    result = call("get_book", {"slug": "the-hobbit"})
    assert not result.is_error
    book = result.structured_content["book"]
    assert (book["title"], book["author"], book["year"]) == ("The Hobbit", "J.R.R. Tolkien", 1937)
    assert book["url"] == "/bookshop/books/the-hobbit/"


def test_get_book_unknown_slug_is_a_tool_error_pointing_to_search(catalog):
    result = call("get_book", {"slug": "no-such-book"})
    assert result.is_error
    assert "search_books" in text(result)


def test_get_book_without_slug_is_a_tool_error(catalog):
    result = call("get_book", {})
    assert result.is_error
    assert "slug" in text(result)


def test_list_moods_lists_the_catalog_moods(catalog):
    result = call("list_moods")
    moods = result.structured_content["moods"]
    assert len(moods) == 12
    assert moods == sorted(moods)
    assert {"calm", "dark", "funny"} <= set(moods)


def test_basket_tools_without_a_browser_session_are_tool_errors(catalog):
    for name, arguments in [("add_to_basket", {"slug": "the-hobbit"}), ("view_basket", {})]:
        result = call(name, arguments)
        assert result.is_error
        assert "no shop session" in text(result)


def test_unknown_tool_is_a_tool_error_listing_the_tools(catalog):
    result = call("delete_everything", {})
    assert result.is_error
    assert "search_books" in text(result)


def test_listed_schemas_forbid_unknown_arguments():
    async def run():
        async with Client(build_server()) as client:
            return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in async_to_sync(run)()}
    assert set(tools) == {"search_books", "get_book", "list_moods", "add_to_basket", "view_basket"}
    for tool in tools.values():
        assert tool.input_schema["additionalProperties"] is False
        assert tool.description
        assert "ctx" not in tool.input_schema.get("properties", {})
    assert tools["search_books"].annotations.read_only_hint is True
    assert tools["add_to_basket"].annotations.read_only_hint is False
    # The shop's tools bring back only the shop's own text: a closed world, said explicitly
    # (MCP's default is an open one, which a browser agent reads as untrusted content).
    assert all(tool.annotations.open_world_hint is False for tool in tools.values())
    assert all(tool.annotations.destructive_hint is False for tool in tools.values())


def test_every_string_argument_of_every_tool_has_a_listed_length_limit():
    async def run():
        async with Client(build_server()) as client:
            return (await client.list_tools()).tools

    def strings(schema):
        if schema.get("type") == "string":
            yield schema
        for option in schema.get("anyOf", []):
            yield from strings(option)

    for tool in async_to_sync(run)():
        for name, schema in tool.input_schema.get("properties", {}).items():
            for string in strings(schema):
                assert isinstance(string.get("maxLength"), int), f"{tool.name}({name}) has no maxLength"


LONG = "<script>" + "x" * 20_000


@pytest.mark.parametrize(
    "tool, arguments, named",
    [
        ("search_books", {"mood": LONG}, "mood"),
        ("search_books", {"query": LONG}, "query"),
        ("get_book", {"slug": LONG}, "slug"),
        ("search_books", {"limit": LONG}, "limit"),
        ("search_books", {LONG: "calm"}, "the allowed arguments are: limit, mood, query"),
        (LONG, {}, "The tools are:"),
    ],
    ids=["mood", "query", "slug", "a string for a number", "an unknown argument", "an unknown tool"],
)
def test_an_error_quotes_at_most_a_short_prefix_of_a_long_value(catalog, tool, arguments, named):
    result = call(tool, arguments)
    assert result.is_error
    assert named in text(result)
    assert len(text(result)) < 400, text(result)
    assert "'<script>xxx" in text(result) and "characters)" in text(result)
