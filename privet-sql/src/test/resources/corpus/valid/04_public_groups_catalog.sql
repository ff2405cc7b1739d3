-- Public keys registered with the dataset (catalog), selected by group_selection_strategy.
-- columns: race, sex, people
-- group_by: race, sex
-- aggregations: CountDistinctUnits(people)
-- selection: public 10
-- budget: epsilon=1
-- contributions: L0=1 Linf=1
-- filter:
-- order: people DESC
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, group_selection_strategy = PUBLIC_GROUPS)
  race, sex, COUNT(DISTINCT id) AS people
FROM adult
GROUP BY race, sex
ORDER BY people DESC
