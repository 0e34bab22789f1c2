from django.urls import path

from sites.twentyq import views

app_name = "twentyq"

urlpatterns = [
    path("", views.index, name="index"),
    path("api/state", views.state, name="state"),
    path("api/new", views.new, name="new"),
    path("api/own", views.own, name="own"),
    path("api/prompt", views.prompt, name="prompt"),
    path("api/reply", views.reply, name="reply"),
    path("api/stream", views.stream, name="stream"),
    path("api/answer", views.answer, name="answer"),
    path("api/verdict", views.verdict, name="verdict"),
    path("api/guess", views.guess, name="guess"),
]
