-- COUNT(column) counts non-NULL values: compiled as COUNT with the filter column IS NOT NULL.
-- columns: known_workclass, known_occupation
-- group_by:
-- aggregations: Count(known_workclass)
-- selection: none
-- budget: epsilon=1
-- contributions: L0=1 Linf=estimated
-- filter: NOT (workclass IS NULL)
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(workclass) AS known_workclass, COUNT(workclass) AS known_occupation FROM adult
