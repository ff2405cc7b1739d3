-- Q8 plain
SELECT COUNT(*) FROM nation n1, nation n2, customer, orders, lineitem, supplier, region WHERE n1.n_nationkey = c_nationkey AND n2.n_nationkey = s_nationkey AND c_custkey = o_custkey AND o_orderkey = l_orderkey AND l_suppkey = s_suppkey AND n1.n_regionkey = r_regionkey AND o_orderdate >= DATE '1995-01-01' AND o_orderdate <= DATE '1996-12-31'
;;
-- Q8 pairs no antijoin
SELECT COUNT(*), SUM(LEAST(n,128)) FROM (SELECT u, COUNT(*) n FROM (SELECT c_custkey u, l_orderkey FROM nation n1, nation n2, customer, orders, lineitem, supplier, region WHERE n1.n_nationkey = c_nationkey AND n2.n_nationkey = s_nationkey AND c_custkey = o_custkey AND o_orderkey = l_orderkey AND l_suppkey = s_suppkey AND n1.n_regionkey = r_regionkey AND o_orderdate >= DATE '1995-01-01' AND o_orderdate <= DATE '1996-12-31') j GROUP BY u)
;;
-- Q8 pairs + antijoin (current)
SELECT COUNT(*), SUM(LEAST(n,128)) FROM (SELECT u, COUNT(*) n FROM (SELECT c_custkey u, l_orderkey FROM nation n1, nation n2, customer, orders, lineitem, supplier, region WHERE n1.n_nationkey = c_nationkey AND n2.n_nationkey = s_nationkey AND c_custkey = o_custkey AND o_orderkey = l_orderkey AND l_suppkey = s_suppkey AND n1.n_regionkey = r_regionkey AND o_orderdate >= DATE '1995-01-01' AND o_orderdate <= DATE '1996-12-31') j LEFT JOIN (SELECT o_orderkey AS __k FROM orders WHERE o_orderkey IS NOT NULL GROUP BY o_orderkey HAVING NOT (COUNT(*) = COUNT(o_custkey) AND MIN(o_custkey) = MAX(o_custkey))) b ON j.l_orderkey = b.__k WHERE b.__k IS NULL GROUP BY u)
;;
-- Q8 residual NOT EXISTS
SELECT COUNT(*), SUM(LEAST(n,128)) FROM (SELECT u, COUNT(*) n FROM (SELECT o_custkey pu, c_custkey u, l_orderkey FROM nation n1, nation n2, customer, orders, lineitem, supplier, region WHERE n1.n_nationkey = c_nationkey AND n2.n_nationkey = s_nationkey AND c_custkey = o_custkey AND o_orderkey = l_orderkey AND l_suppkey = s_suppkey AND n1.n_regionkey = r_regionkey AND o_orderdate >= DATE '1995-01-01' AND o_orderdate <= DATE '1996-12-31') j WHERE NOT EXISTS (SELECT 1 FROM orders o2 WHERE o2.o_orderkey = j.l_orderkey AND (o2.o_custkey IS NULL OR o2.o_custkey <> j.pu)) GROUP BY u)
;;
-- Q8 residual anti join explicit
SELECT COUNT(*), SUM(LEAST(n,128)) FROM (SELECT u, COUNT(*) n FROM (SELECT o_custkey pu, c_custkey u, l_orderkey FROM nation n1, nation n2, customer, orders, lineitem, supplier, region WHERE n1.n_nationkey = c_nationkey AND n2.n_nationkey = s_nationkey AND c_custkey = o_custkey AND o_orderkey = l_orderkey AND l_suppkey = s_suppkey AND n1.n_regionkey = r_regionkey AND o_orderdate >= DATE '1995-01-01' AND o_orderdate <= DATE '1996-12-31') j ANTI JOIN orders o2 ON o2.o_orderkey = j.l_orderkey AND o2.o_custkey IS DISTINCT FROM j.pu GROUP BY u)
;;
-- Q8 count-only broken agg
SELECT COUNT(*), SUM(LEAST(n,128)) FROM (SELECT u, COUNT(*) n FROM (SELECT c_custkey u, l_orderkey FROM nation n1, nation n2, customer, orders, lineitem, supplier, region WHERE n1.n_nationkey = c_nationkey AND n2.n_nationkey = s_nationkey AND c_custkey = o_custkey AND o_orderkey = l_orderkey AND l_suppkey = s_suppkey AND n1.n_regionkey = r_regionkey AND o_orderdate >= DATE '1995-01-01' AND o_orderdate <= DATE '1996-12-31') j LEFT JOIN (SELECT o_orderkey AS __k FROM orders GROUP BY o_orderkey HAVING COUNT(*) > 1 UNION ALL SELECT o_orderkey FROM orders WHERE o_custkey IS NULL) b ON j.l_orderkey = b.__k WHERE b.__k IS NULL GROUP BY u)
;;
-- broken agg alone
SELECT COUNT(*) FROM (SELECT o_orderkey AS __k FROM orders WHERE o_orderkey IS NOT NULL GROUP BY o_orderkey HAVING NOT (COUNT(*) = COUNT(o_custkey) AND MIN(o_custkey) = MAX(o_custkey)))
;;
-- count-only agg alone
SELECT COUNT(*) FROM (SELECT o_orderkey AS __k FROM orders GROUP BY o_orderkey HAVING COUNT(*) > 1)
;;
-- distinct keys approx: count vs count distinct 
SELECT COUNT(*), COUNT(DISTINCT o_orderkey) FROM orders
