"""The relay's routes, included by sites/config/urls.py only when DEBUG is on."""

from django.urls import path

from sites.home.relay import views

app_name = "testwallet_relay"

urlpatterns = [
    path("chat", views.chat, name="chat"),
    path("transcribe", views.transcribe, name="transcribe"),
]
