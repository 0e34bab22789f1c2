from django.apps import AppConfig


class BookshopConfig(AppConfig):
    name = "sites.bookshop"
    label = "bookshop"
    verbose_name = "Bookshop demo"
    # What the home page lists (sites/home/demos.py).
    demo_title = "Bookshop"
    demo_picture = "home/art/books.svg"  # the demos' shared picture style (frontend/scripts/build-face.js)
    demo_description = "Ask your own AI for a book: it searches this shop's shelves and fills your basket."

    def ready(self):
        from sites.bookshop import signals

        signals.connect()
