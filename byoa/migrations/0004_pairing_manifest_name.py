# The field holds the name of a manifest, not a site: say so. RenameField keeps the rows;
# the index on (visitor, site) is named after its fields, so it is built again under its new name.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("byoa", "0003_server_process"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="pairing",
            name="byoa_pairin_visitor_cb15fd_idx",
        ),
        migrations.RenameField(
            model_name="pairing",
            old_name="site",
            new_name="manifest_name",
        ),
        migrations.RenameField(
            model_name="sessioncode",
            old_name="site",
            new_name="manifest_name",
        ),
        migrations.AddIndex(
            model_name="pairing",
            index=models.Index(fields=["visitor", "manifest_name"], name="byoa_pairin_visitor_23e45f_idx"),
        ),
    ]
