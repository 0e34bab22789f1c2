from django.contrib import admin

from sites.bookshop.models import Book, Mood


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ["title", "author", "year", "price"]
    search_fields = ["title", "author"]
    list_filter = ["moods", "genre"]


admin.site.register(Mood)
