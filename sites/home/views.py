from django.shortcuts import render

from sites.home.demos import installed_demos


def index(request):
    """Show the demos and which wallets this browser has."""
    return render(request, "home/index.html", {"demos": installed_demos()})
