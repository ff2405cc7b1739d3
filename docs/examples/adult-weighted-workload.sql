-- A workload on UCI Adult (data/adult-raw; Kohavi 1996; UCI ML Repository, CC BY 4.0) planned by
-- weight (issue 22): no max_error and no epsilon; min_count is a public lower bound on every
-- group's rows, from which each output's public magnitude is read. The plan minimises the
-- weighted sum of squared relative errors. One max_error query is met first.
-- Plan it with: privet plan --dataset adult --workload docs/examples/adult-weighted-workload.sql --budget-epsilon 1
-- weight: 4
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (min_count = 10000, public_groups = ('Female', 'Male')) sex, COUNT(*) AS n, AVG(hours_per_week, contribution_bounds_per_row => (0, 100)) AS mean_hours FROM adult GROUP BY sex;
-- weight: 1
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (min_count = 250, public_groups = ('White', 'Black', 'Asian-Pac-Islander', 'Amer-Indian-Eskimo', 'Other')) race, COUNT(*) AS n FROM adult GROUP BY race;
-- weight: 2
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (min_count = 7000, public_groups = ('<=50K', '>50K')) income, AVG(age, contribution_bounds_per_row => (0, 100)) AS mean_age FROM adult GROUP BY income;
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => 120)) COUNT(*) AS n FROM adult;
