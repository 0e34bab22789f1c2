"""The byoa migrations keep what the database holds."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target):
    """Migrate the byoa app to ``target`` and return the app registry of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate([("byoa", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("byoa", target)]).apps


def test_renaming_site_to_manifest_name_keeps_each_pairing_and_code():
    old = migrate("0003_server_process")
    now = timezone.now()
    pairing = old.get_model("byoa", "Pairing").objects.create(
        token_digest="t" * 64, visitor="v", site="geo", created_at=now, last_seen=now
    )
    old.get_model("byoa", "SessionCode").objects.create(
        code_digest="c" * 64,
        wait_id="w",
        visitor="v",
        client_digest="d",
        site="quiz",
        manifest="e30",
        created_at=now,
        expires_at=now,
    )
    try:
        new = migrate("0004_pairing_manifest_name")
        assert new.get_model("byoa", "Pairing").objects.get(pk=pairing.pk).manifest_name == "geo"
        assert new.get_model("byoa", "SessionCode").objects.get(wait_id="w").manifest_name == "quiz"
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
