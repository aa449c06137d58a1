# expect: 2:1: 'tuple' is an illegal expression for augmented assignment
a, b += 1
