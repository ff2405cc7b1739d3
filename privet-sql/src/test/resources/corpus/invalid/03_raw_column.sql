-- error: 1:81
-- reason: neither in GROUP BY
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) education, age, COUNT(*) FROM adult GROUP BY education
