-- error: 1:56
-- reason: Privet does not compute PERCENTILE_CONT's bounds implicitly
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) PERCENTILE_CONT(capital_gain, 0.5) FROM adult
