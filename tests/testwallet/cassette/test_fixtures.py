"""The cassette from pytest: an option for the session, a marker for one test, a fixture."""

import json

pytest_plugins = ["pytester"]

#: pytest-playwright (sync) does not load beside the async one; the site's Django settings are not needed here.
QUIET = ("-p", "no:cacheprovider", "-p", "no:playwright", "-p", "no:django")
RECORDED = {"testwallet_cassette": 1, "entries": []}


def test_the_marker_gives_the_test_its_cassette_in_replay_only_mode(pytester):
    (pytester.path / "answers.json").write_text(json.dumps(RECORDED))
    pytester.makepyfile(
        """
        import pytest
        from testwallet.cassette import Mode

        @pytest.mark.testwallet_cassette("answers.json")
        def test_it(testwallet_cassette):
            assert testwallet_cassette.mode is Mode.NONE and testwallet_cassette.path.name == "answers.json"
        """
    )
    pytester.runpytest_subprocess(*QUIET).assert_outcomes(passed=1)


def test_the_options_reach_the_sessions_servers_through_the_environment(pytester):
    (pytester.path / "answers.json").write_text(json.dumps(RECORDED))
    pytester.makepyfile(
        """
        import os
        from testwallet.cassette import Mode

        def test_it(testwallet_cassette):
            assert os.environ["TESTWALLET_RECORD"] == "new"
            assert os.environ["TESTWALLET_CASSETTE"].endswith("answers.json")
            assert testwallet_cassette.mode is Mode.NEW
        """
    )
    result = pytester.runpytest_subprocess(
        *QUIET, "--testwallet-cassette=answers.json", "--testwallet-record=new"
    )
    result.assert_outcomes(passed=1)


def test_a_broken_cassette_fails_the_test_naming_the_file(pytester):
    (pytester.path / "answers.json").write_text('{"testwallet_cassette": 1, "entries": [')
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.testwallet_cassette("answers.json")
        def test_it(testwallet_cassette):
            pass
        """
    )
    result = pytester.runpytest_subprocess(*QUIET)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*truncated*answers.json*"])


def test_a_test_that_asks_for_a_cassette_and_names_none_fails_saying_how_to_name_one(pytester):
    pytester.makepyfile(
        """
        def test_it(testwallet_cassette):
            pass
        """
    )
    result = pytester.runpytest_subprocess(*QUIET)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*names no cassette*testwallet_cassette(path)*--testwallet-cassette FILE*"])
