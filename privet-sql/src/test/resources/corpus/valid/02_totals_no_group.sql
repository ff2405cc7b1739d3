-- No GROUP BY: one row, pure DP is enough.
-- columns: people, total_hours, avg_age
-- group_by:
-- aggregations: Count(people); Sum(total_hours, hours_per_week, 0, 99); Mean(avg_age, age, 17, 90, perGroup 17..90)
-- selection: none
-- budget: epsilon=2
-- contributions: L0=1 Linf=1
-- filter:
select with differential_privacy options (epsilon = 2)
  count(*) as people,
  sum(hours_per_week, contribution_bounds_per_row => (0, 99)) as total_hours,
  avg(age, contribution_bounds_per_group => (17, 90)) as avg_age
from adult
