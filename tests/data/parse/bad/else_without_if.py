# expect: 2:1: 'else' without a matching 'if', 'for', 'while' or 'try' before it
else:
    pass
