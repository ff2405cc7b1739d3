-- error: 1:77
-- reason: joins are not allowed
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult, adult_rows
