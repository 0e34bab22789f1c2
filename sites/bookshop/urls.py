from django.urls import path

from sites.bookshop import views

app_name = "bookshop"

urlpatterns = [
    path("", views.index, name="index"),
    path("books/<slug:slug>/", views.book, name="book"),
]
