-- error: 1:76
-- reason: syntax error
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult GROUP education
