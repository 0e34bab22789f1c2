# The example is a site's own test: test_howto.py runs it in a project of its own, with its cassette.
collect_ignore = ["test_my_prompt.py"]
