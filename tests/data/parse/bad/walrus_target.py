# expect: 2:2: cannot use assignment expressions with attribute
(a.b := 1)
