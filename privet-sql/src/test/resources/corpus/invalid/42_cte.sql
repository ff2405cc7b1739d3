-- error: 1:34
-- reason: GROUP before the DP aggregate
WITH t AS (SELECT * FROM adult t GROUP BY age) SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM t
