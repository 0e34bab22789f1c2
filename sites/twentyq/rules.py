"""The rules of the game in numbers and words, shared by the game, the prompts and the page."""

#: Turns in a game; a guess uses one.
LIMIT = 20

MODES = ("ai-asks", "site-thinks")

#: What the visitor may answer the AI, and how the page labels it.
ANSWERS = {"yes": "Yes", "no": "No", "sometimes": "Sometimes", "unknown": "Don't know"}

#: How an answer reads to the model.
ANSWER_WORDS = {"yes": "Yes", "no": "No", "sometimes": "Sometimes", "unknown": "I don't know"}

#: What the model may answer about the site's secret (params.choices).
CHOICES = ("yes", "no", "sometimes")

#: Seconds a page has to post back a model's reply to a prompt.
PROMPT_SECONDS = 120

#: The ways in that run the model in the page, and the direct link (the server calls the wallet).
PAGE_WAYS = ("aiwallet", "extension", "builtin")
LINK_WAY = "link"

#: Model codes a reply may name (specs/byoa-sites.md: the grant lists m1, m2...).
MODEL_CODES = ("m1", "m2")
