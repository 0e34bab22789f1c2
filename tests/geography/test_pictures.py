"""
The pictures the game shows once a round is judged: a flag and a globe for every country it asks
about, committed as static files and exactly what frontend/scripts/build-geography.js draws from
the data packages (flag-icons, world-atlas), with their licences beside them.
"""

import subprocess
from pathlib import Path

from sites.geography import places
from sites.geography.pictures import clue_url, with_pictures

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "sites" / "geography" / "static" / "geography"


def test_the_committed_pictures_are_what_the_data_packages_draw():
    done = subprocess.run(
        ["node", "scripts/build-geography.js", "--check"],
        cwd=ROOT / "frontend",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_every_country_the_game_asks_about_has_a_flag_a_globe_a_clue_and_their_licences_are_beside_them():
    asked = {place.country.lower() for place in places.all_places().values()}
    assert {path.stem for path in (STATIC / "flags").glob("*.svg")} == asked
    assert {path.stem for path in (STATIC / "maps").glob("*.svg")} == asked
    clues = {country.lower(): clue_url(country) for country in map(str.upper, asked)}
    assert len(set(clues.values())) == len(asked)
    assert {Path(url).name for url in clues.values()} == {
        path.name for path in (STATIC / "clues").glob("*.svg")
    }
    assert "MIT" in (STATIC / "flags" / "LICENSE").read_text(encoding="utf-8")
    for folder in ("maps", "clues"):
        assert "Natural Earth" in (STATIC / folder / "LICENSE").read_text(encoding="utf-8")


def test_a_questions_clue_circles_the_place_and_does_not_mark_its_country():
    clue = (STATIC / clue_url("PE").removeprefix("/static/geography/")).read_text(encoding="utf-8")
    assert 'class="area"' in clue and 'class="country"' not in clue
    assert 'viewBox="0 0 240 240"' in clue


def test_a_payload_names_the_pictures_of_its_country_and_of_each_round_in_its_summary():
    shown = with_pictures({"country": "PE", "summary": [{"country": "JP", "right": False}]})
    assert shown["flag"].endswith("/geography/flags/pe.svg") and shown["map"].endswith(
        "/geography/maps/pe.svg"
    )
    assert shown["summary"][0]["flag"].endswith("/geography/flags/jp.svg")
    assert "flag" not in with_pictures({"verdict": "no-answer"})
