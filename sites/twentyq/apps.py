from django.apps import AppConfig


class TwentyQConfig(AppConfig):
    name = "sites.twentyq"
    label = "twentyq"
    verbose_name = "Twenty Questions demo"
    # What the home page lists (sites/home/demos.py).
    demo_title = "Twenty Questions"
    demo_picture = "home/art/genie.svg"  # the demos' shared picture style (frontend/scripts/build-face.js)
    demo_description = (
        "Think of something and your own AI asks yes or no questions, or guess what the site thinks of."
    )
    #: The page offers the BYOA direct link (the home page says how to try it).
    demo_direct_link = True

    def ready(self):
        from sites.twentyq import checks  # noqa: F401  (registers the system checks)
