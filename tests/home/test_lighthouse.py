"""
Lighthouse's accessibility, best-practices and SEO audits on every demo page, as production serves
them (DEBUG off, collectstatic's files): each category at 95 or more. These audits read the page as
it is, so they belong in the suite; the performance score moves with the machine's load, so it is
benchmarks/lighthouse.py's printed figure, never asserted here.
"""

import pytest

from tests.lighthouse import lighthouse, scores, shortfalls

pytestmark = [pytest.mark.browser, pytest.mark.live]

CATEGORIES = ("accessibility", "best-practices", "seo")
# The home page and each demo's own page. The bookshop's book and basket pages share its frame and
# stylesheet; benchmarks/lighthouse.py scores them too (each run here is a whole Lighthouse audit).
PAGES = ["/", "/bookshop/", "/geography/", "/twentyq/"]


@pytest.mark.parametrize("path", PAGES)
def test_lighthouse_scores_the_page_at_least_95_for_accessibility_best_practices_and_seo(daphne_server, path):
    report = lighthouse(daphne_server.url + path, CATEGORIES)
    assert report["finalDisplayedUrl"].endswith(path)
    low = {
        category: shortfalls(report, category) for category, score in scores(report).items() if score < 0.95
    }
    assert low == {}, scores(report)
