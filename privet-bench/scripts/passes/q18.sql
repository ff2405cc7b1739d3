-- plain
SELECT CAST(SUM(l_quantity) AS BIGINT) FROM customer, orders, lineitem WHERE c_custkey = o_custkey AND o_orderkey = l_orderkey
;;
-- harness
SELECT COUNT(*), SUM(s) FROM (SELECT o_custkey, SUM(l_quantity) s FROM customer, orders, lineitem WHERE c_custkey = o_custkey AND o_orderkey = l_orderkey GROUP BY o_custkey)
;;
-- B pairs after join + antijoin
SELECT COUNT(*), SUM(s), SUM(n) FROM (SELECT u, COUNT(*) n, SUM(v) s, COUNT(v) c FROM (SELECT c_custkey u, CAST(LEAST(GREATEST(CAST(l_quantity AS DOUBLE), 0.0), 50.0) * 16777216.0 AS BIGINT) v, l_orderkey FROM customer JOIN orders ON c_custkey = o_custkey JOIN lineitem ON o_orderkey = l_orderkey) j LEFT JOIN (SELECT o_orderkey AS __k FROM orders WHERE o_orderkey IS NOT NULL GROUP BY o_orderkey HAVING NOT (COUNT(*) = COUNT(o_custkey) AND MIN(o_custkey) = MAX(o_custkey))) b ON j.l_orderkey = b.__k WHERE b.__k IS NULL GROUP BY u)
;;
-- B' pairs after join, no antijoin
SELECT COUNT(*), SUM(s), SUM(n) FROM (SELECT u, COUNT(*) n, SUM(v) s, COUNT(v) c FROM (SELECT c_custkey u, CAST(LEAST(GREATEST(CAST(l_quantity AS DOUBLE), 0.0), 50.0) * 16777216.0 AS BIGINT) v, l_orderkey FROM customer JOIN orders ON c_custkey = o_custkey JOIN lineitem ON o_orderkey = l_orderkey) j GROUP BY u)
;;
-- C eager lineitem per orderkey + antijoin on preagg
SELECT COUNT(*), SUM(s), SUM(n) FROM (SELECT u, SUM(n) n, SUM(s) s, SUM(c) c FROM (SELECT c_custkey u, l.n, l.s, l.c, l.k FROM customer JOIN orders ON c_custkey = o_custkey JOIN (SELECT l_orderkey k, COUNT(*) n, SUM(v) s, COUNT(v) c FROM (SELECT l_orderkey, CAST(LEAST(GREATEST(CAST(l_quantity AS DOUBLE), 0.0), 50.0) * 16777216.0 AS BIGINT) v FROM lineitem) GROUP BY l_orderkey) l ON o_orderkey = l.k) j LEFT JOIN (SELECT o_orderkey AS __k FROM orders WHERE o_orderkey IS NOT NULL GROUP BY o_orderkey HAVING NOT (COUNT(*) = COUNT(o_custkey) AND MIN(o_custkey) = MAX(o_custkey))) b ON j.k = b.__k WHERE b.__k IS NULL GROUP BY u)
;;
-- C' eager, no antijoin
SELECT COUNT(*), SUM(s), SUM(n) FROM (SELECT u, SUM(n) n, SUM(s) s, SUM(c) c FROM (SELECT c_custkey u, l.n, l.s, l.c, l.k FROM customer JOIN orders ON c_custkey = o_custkey JOIN (SELECT l_orderkey k, COUNT(*) n, SUM(v) s, COUNT(v) c FROM (SELECT l_orderkey, CAST(LEAST(GREATEST(CAST(l_quantity AS DOUBLE), 0.0), 50.0) * 16777216.0 AS BIGINT) v FROM lineitem) GROUP BY l_orderkey) l ON o_orderkey = l.k) j GROUP BY u)
;;
-- antijoin agg alone
SELECT COUNT(*) FROM (SELECT o_orderkey AS __k FROM orders WHERE o_orderkey IS NOT NULL GROUP BY o_orderkey HAVING NOT (COUNT(*) = COUNT(o_custkey) AND MIN(o_custkey) = MAX(o_custkey)))
;;
-- lineitem preagg alone
SELECT COUNT(*) FROM (SELECT l_orderkey k, COUNT(*) n, SUM(v) s, COUNT(v) c FROM (SELECT l_orderkey, CAST(LEAST(GREATEST(CAST(l_quantity AS DOUBLE), 0.0), 50.0) * 16777216.0 AS BIGINT) v FROM lineitem) GROUP BY l_orderkey)
