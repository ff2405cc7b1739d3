-- error: 1:1
-- reason: common table expressions
WITH t AS (SELECT * FROM adult) SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM t
