package org.privet.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privet.engine.Aggregation;

/** The public magnitudes of statements planned by weight, from bounds and min_count only. */
class PublicMagnitudeTest {
  @Test
  void of_eachAggregation_readsBoundsAndMinCount() {
    assertEquals(2000, PublicMagnitude.of(new Aggregation.Count("n"), 2000, 1));
    assertEquals(500, PublicMagnitude.of(new Aggregation.CountDistinctUnits("u"), 2000, 4));
    assertEquals(2000 * 80, PublicMagnitude.of(new Aggregation.Sum("s", "x", -80, 60), 2000, 1));
    assertEquals(500 * 30, PublicMagnitude.of(new Aggregation.Sum("s", "x", 0, 10,
        Aggregation.GroupBounds.of(0, 30)), 2000, 4));
    assertEquals(100, PublicMagnitude.of(new Aggregation.Mean("m", "x", 0, 100), 2000, 1));
    assertEquals(2000, PublicMagnitude.of(new Aggregation.Quantiles("q", "x", 0, 100,
        List.of(0.5), 1024), 2000, 1));
    assertEquals(200, PublicMagnitude.of(new Aggregation.Histogram("h", "x", 0, 100, 10), 2000,
        1));
  }

  @Test
  void halfWidths_scaleTimesMagnitude_perOutput() {
    PublicMagnitude p = new PublicMagnitude();
    Map<String, Double> t = p.halfWidths(List.of(new Aggregation.Count("n"),
        new Aggregation.Mean("m", "x", 0, 50)), 1000, 1);
    assertEquals(PublicMagnitude.SCALE * 1000, t.get("n"), 1e-12);
    assertEquals(PublicMagnitude.SCALE * 50, t.get("m"), 1e-12);
    assertTrue(p.used());
  }

  @Test
  void of_noMinCountOrVariance_refusedNamingWhy() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PublicMagnitude.of(new Aggregation.Count("n"), 0, 1));
    assertTrue(e.getMessage().contains("min_count"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> PublicMagnitude.of(new Aggregation.Variance("v", "x", 0, 1), 100, 1));
    assertTrue(e.getMessage().contains("VARIANCE"), e.getMessage());
  }
}
