from django.urls import path

from byoa import views

app_name = "byoa"

urlpatterns = [
    path("code", views.code, name="code"),
    path("wait", views.wait, name="wait"),
    path("disconnect", views.disconnect, name="disconnect"),
]
