-- error: 1:77
-- reason: only one statement
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult; DROP TABLE adult
