-- error: 1:82
-- reason: unknown column 'zip'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE zip = '90210'
