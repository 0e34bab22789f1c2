"""
A lone UTF-16 surrogate ("\\ud800") is JSON syntax but no Unicode text: every
JSON entry point of byoa answers it with a protocol close code or a 400, never
a traceback.
"""

import pytest
from django.test import AsyncClient

from byoa.wire import protocol
from byoa.wire.protocol import CloseCode
from tests.byoa.conftest import close_code, hello, new_code

pytestmark = pytest.mark.django_db(transaction=True)

LONE = "\\ud800"  # as the JSON text spells it


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"hello","v":"0.1","session":"\\ud800","pairing":null,"wallet":{},"grant":{}}',
        '{"type":"hello","session":"\\udfff"}',
        '{"\\udc00":1}',
        '{"type":"ping","pad":["a",{"b":"x\\ud800y"}]}',
    ],
)
def test_the_reader_refuses_a_lone_surrogate_as_not_json(text):
    with pytest.raises(protocol.NotJSON):
        protocol.parse(text)


def test_the_reader_keeps_a_surrogate_pair():
    assert protocol.parse('{"type":"ping","text":"\\ud83d\\ude00"}') == {"type": "ping", "text": "\U0001f600"}


async def test_a_hello_with_a_lone_surrogate_as_its_session_closes_with_4007(wallet_socket):
    communicator, _ = await wallet_socket()
    await communicator.send_to(text_data='{"type":"hello","v":"0.1","session":"' + LONE + '","grant":{}}')
    assert await close_code(communicator) == CloseCode.NOT_JSON == 4007


async def test_a_frame_with_a_lone_surrogate_after_the_welcome_closes_with_4007(wallet_socket):
    code, _wait = await new_code()
    communicator, _ = await wallet_socket()
    await communicator.send_json_to(hello(session=code))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "welcome"
    await communicator.send_to(text_data='{"type":"grant","grant":{"skills":["' + LONE + '"]}}')
    assert await close_code(communicator) == 4007


async def test_disconnect_with_a_lone_surrogate_answers_400():
    page = AsyncClient()
    await page.post("/byoa/code", {"manifest": "geo"})
    response = await page.post(
        "/byoa/disconnect", '{"session":"' + LONE + '"}', content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["error"] == "bad-request"


@pytest.mark.parametrize(
    "body", ['{"manifest":"' + LONE + '"}', b'{"manifest":"\xff"}', "{not json", "[1]"], ids=repr
)
async def test_a_code_asked_with_a_body_that_is_not_a_json_object_of_text_answers_400(body):
    response = await AsyncClient().post("/byoa/code", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == "bad-request"


async def test_wait_with_a_lone_surrogate_in_its_query_answers_as_for_an_unknown_session():
    response = await AsyncClient().get("/byoa/wait?session=%ED%A0%80")
    assert response.status_code == 200 and response.json() == {"state": "expired"}
