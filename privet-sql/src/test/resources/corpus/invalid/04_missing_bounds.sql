-- error: 1:56
-- reason: needs contribution bounds
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(capital_gain) FROM adult
