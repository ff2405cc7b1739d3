-- ORDER BY an aggregate call, a key and a position; LIMIT and OFFSET after aggregation.
-- columns: occupation, COUNT(*), avg_gain
-- group_by: occupation
-- aggregations: Count(agg1); Mean(avg_gain, capital_gain, -10240000, 10240000, perGroup 0..10000)
-- selection: private
-- budget: epsilon=1 delta=1e-5
-- contributions: L0=1 Linf=1
-- filter: NOT (occupation IS NULL)
-- order: COUNT(*) DESC, occupation ASC, avg_gain ASC
-- limit: 5
-- offset: 1
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-5)
  occupation, COUNT(*), AVG(capital_gain, contribution_bounds_per_group => (0, 10000)) avg_gain
FROM adult
WHERE occupation IS NOT NULL
GROUP BY occupation
ORDER BY COUNT(*) DESC, occupation, 3
LIMIT 5 OFFSET 1
