-- error: 1:56
-- reason: MAX is not a DP aggregate
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) MAX(capital_gain) FROM adult
