# a helper of import_helper_broken.py with a syntax error
Y = (3,
