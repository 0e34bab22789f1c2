from django.apps import AppConfig


class GeographyConfig(AppConfig):
    name = "sites.geography"
    label = "geography"
    verbose_name = "Voice geography game"
    # What the home page lists (sites/home/demos.py).
    demo_title = "Voice geography game"
    demo_picture = "home/art/globe.svg"  # the demos' shared picture style (frontend/scripts/build-face.js)
    demo_description = "Name the country out loud: your own AI listens, and the site checks the answer."
    #: The page offers the BYOA direct link (the home page says how to try it).
    demo_direct_link = True
