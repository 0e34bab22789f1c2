"""byoa.deadlines: one call's time limits, in one object."""

import asyncio
from datetime import timedelta

from byoa import clock
from byoa.deadlines import Deadline


async def test_a_deadline_without_a_timeout_takes_call_seconds(settings):
    settings.BYOA = {**settings.BYOA, "CALL_SECONDS": 7}
    deadline = Deadline.start()
    assert deadline.timeout == 7 and 6.5 < deadline.remaining() <= 7


async def test_an_unacknowledged_call_waits_only_for_the_acceptance_window(settings):
    settings.BYOA = {**settings.BYOA, "ACCEPT_SECONDS": 2}
    deadline = Deadline.start(60).awaiting_acceptance()
    now = asyncio.get_running_loop().time()
    assert now + 1.5 < deadline.wait_until(acknowledged=False) <= now + 2
    assert deadline.ends_unacknowledged(acknowledged=False)
    # Once acknowledged, the call's own timeout counts again.
    assert deadline.wait_until(acknowledged=True) == deadline.at
    assert not deadline.ends_unacknowledged(acknowledged=True)


async def test_a_timeout_shorter_than_the_acceptance_window_is_no_missed_acknowledgement(settings):
    settings.BYOA = {**settings.BYOA, "ACCEPT_SECONDS": 2}
    deadline = Deadline.start(0.5).awaiting_acceptance()
    assert deadline.wait_until(acknowledged=False) == deadline.at
    assert not deadline.ends_unacknowledged(acknowledged=False)


async def test_a_call_from_another_process_keeps_what_was_left_of_its_timeout():
    deadline = Deadline.arrived(3.0)
    assert deadline.timeout == 3.0 and 2.5 < deadline.remaining() <= 3.0 and deadline.accept_by is None


async def test_a_timed_out_call_holds_its_slot_for_max_call_seconds_else_its_timeout():
    deadline = Deadline.start(5)
    before = clock.now()
    assert before + timedelta(seconds=29) < deadline.hold_until(30) <= clock.now() + timedelta(seconds=30)
    assert before + timedelta(seconds=4) < deadline.hold_until(None) <= clock.now() + timedelta(seconds=5)


async def test_a_passed_deadline_has_nothing_remaining():
    deadline = Deadline.start(0)
    assert deadline.remaining() == 0.0
