"""The relay's routes; a site includes them only when DEBUG is on (sites/config/urls.py does)."""

from django.urls import path

from testwallet.relay import views

app_name = "testwallet_relay"

urlpatterns = [
    path("chat", views.chat, name="chat"),
    path("generate", views.generate, name="generate"),
    path("transcribe", views.transcribe, name="transcribe"),
]
