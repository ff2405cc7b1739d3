-- error: 1:88
-- reason: has type integer but the literal is a string
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE age > 'forty'
