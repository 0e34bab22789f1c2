from django.urls import path

from sites.geography import views

app_name = "geography"

urlpatterns = [
    path("", views.index, name="index"),
    path("answer/", views.answer, name="answer"),
    path("clip/", views.clip, name="clip"),
    path("language/", views.language, name="language"),
    path("new/", views.new_game, name="new"),
]
