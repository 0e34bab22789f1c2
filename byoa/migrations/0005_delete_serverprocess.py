# The liveness records of server processes went with the delivery of issue 59: a call to a
# process that died now ends at its deadline (docs/explanation/delivery.md).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("byoa", "0004_pairing_manifest_name")]

    operations = [migrations.DeleteModel(name="ServerProcess")]
