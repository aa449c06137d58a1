# expect: 2:7: expected NEWLINE after statement, found number 2
x = 1 2
