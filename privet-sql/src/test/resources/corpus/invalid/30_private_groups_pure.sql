-- error: 1:87
-- reason: needs delta > 0
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) education, COUNT(*) FROM adult GROUP BY education
