-- error: 1:94
-- reason: unterminated string literal
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE education = 'Bachelors
