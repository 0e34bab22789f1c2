from django.urls import path

from sites.bookshop import views

app_name = "bookshop"

urlpatterns = [
    path("", views.index, name="index"),
    path("books/<slug:slug>/", views.book, name="book"),
    path("covers/<slug:slug>.svg", views.cover, name="cover"),
    path("basket/", views.basket, name="basket"),
    path("basket/add/", views.basket_add, name="basket_add"),
    path("basket/change/", views.basket_change, name="basket_change"),
    path("basket/checkout/", views.checkout, name="checkout"),
]
