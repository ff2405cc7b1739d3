package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.RdpAccountant;
import org.privet.accounting.pld.PldAccountant;
import org.privet.mechanisms.GaussianMechanism;
import org.privet.mechanisms.RandomizedResponse;

/**
 * The playground's routes on a real server over loopback HTTP, checked against privet-core called
 * directly: the numbers the page draws are the library's.
 */
class PlaygroundRoutesTest extends LoopbackServerTest {

  static JsonNode ok(String pathAndQuery) {
    Api.Response r = api.get(pathAndQuery, null);
    assertEquals(200, r.status(), r.text());
    return r.json();
  }

  @Test
  void randomizedResponse_eachPoint_isTheLibrarysEstimateOfItsCount() {
    JsonNode out = ok("/v1/playground/randomized-response?protocol=epsilon&epsilon=1&truth=0.3&beta=0.05&maxN=2000");
    RandomizedResponse rr = RandomizedResponse.builder().epsilon(1).build();
    assertEquals(rr.truthProbability(), out.get("truthProbability").asDouble(), 0);
    List<Integer> ns = new ArrayList<>();
    for (JsonNode p : out.get("points")) {
      ns.add(p.get("n").asInt());
      var e = rr.estimateFrequency(p.get("yes").asLong(), p.get("n").asLong(), 0.05);
      assertEquals(e.estimate(), p.get("estimate").asDouble(), 0);
      assertEquals(e.interval().lower(), p.get("lower").asDouble(), 0);
      assertEquals(e.interval().upper(), p.get("upper").asDouble(), 0);
    }
    assertEquals(List.of(10, 20, 50, 100, 200, 500, 1000, 2000), ns);
  }

  @Test
  void randomizedResponse_largeSurvey_intervalCoversTheTruth() {
    // Each interval holds with probability >= 0.95 (Hoeffding); with beta = 1e-6 a miss at the
    // largest n has probability <= 1e-6: the false-failure probability of this test. Power: an
    // estimate that was not debiased (the raw yes fraction, 0.3*0.731+0.7*0.269 = 0.408) lies far
    // outside the interval of half-width 0.067 at n = 20000.
    JsonNode out = ok("/v1/playground/randomized-response?epsilon=1&truth=0.3&beta=1e-6&maxN=20000");
    JsonNode last = out.get("points").get(out.get("points").size() - 1);
    assertEquals(20000, last.get("n").asInt());
    assertTrue(last.get("lower").asDouble() <= 0.3 && 0.3 <= last.get("upper").asDouble(), last.toString());
    double raw = last.get("yes").asDouble() / 20000;
    assertTrue(raw > last.get("upper").asDouble(), "the raw fraction must not pass for the estimate");
  }

  @Test
  void composition_curves_areTheAccountantsOwnNumbers() {
    JsonNode out = ok("/v1/playground/composition?mechanism=gaussian&param=3&samplingRate=0.1&delta=1e-5&maxK=50");
    List<Integer> ks = new ArrayList<>();
    out.get("k").forEach(k -> ks.add(k.asInt()));
    assertEquals(1, ks.get(0));
    assertEquals(50, ks.get(ks.size() - 1));
    int i = ks.size() - 1;
    PrivacyLoss ev = new PoissonSubsampled(new MechanismLoss.Gaussian(3), 0.1);
    double rdp = new RdpAccountant().compose(Collections.nCopies(50, ev), 1e-5).epsilon();
    double pld = PldAccountant.builder().valueDiscretizationInterval(out.get("pldInterval").asDouble()).build().compose(Collections.nCopies(50, ev), 1e-5).epsilon();
    assertEquals(rdp, out.get("curves").get("rdp").get("epsilon").get(i).asDouble(), 0);
    assertEquals(pld, out.get("curves").get("pld").get("epsilon").get(i).asDouble(), 0);
    // PLD is the tightest; basic composition the loosest.
    double basic = out.get("curves").get("basic").get("epsilon").get(i).asDouble();
    assertTrue(pld <= rdp && rdp < basic, out.get("curves").toString());
  }

  @Test
  void composition_laplaceWithoutSampling_basicIsKTimesEpsilon() {
    JsonNode out = ok("/v1/playground/composition?mechanism=laplace&param=0.1&samplingRate=1&delta=1e-5&maxK=100");
    JsonNode basic = out.get("curves").get("basic").get("epsilon");
    int idx = 0;
    for (JsonNode k : out.get("k")) {
      double expected = BasicAccountant.INSTANCE.compose(
          Collections.nCopies(k.asInt(), new org.privet.accounting.ApproxDp(0.1, 0)), 1e-5).epsilon();
      assertEquals(expected, basic.get(idx++).asDouble(), 0);
    }
    assertEquals(10.0, basic.get(basic.size() - 1).asDouble(), 1e-9);
  }

  @Test
  void neighbours_gaussian_deltaRegionMassMatchesTheLibrarysProfile() {
    JsonNode out = ok("/v1/playground/neighbours?mechanism=gaussian&epsilon=1&delta=1e-3&sensitivity=1");
    double sigma = GaussianMechanism.builder().epsilon(1).delta(1e-3).sensitivity(1).build().sigma();
    assertEquals(sigma, out.get("scale").asDouble(), 0);
    double profile = MechanismLoss.Gaussian.analyticDelta(1, 1, sigma);
    assertEquals(profile, out.get("profileDelta").asDouble(), 0);
    // The numerical mass of the region where the loss exceeds epsilon is the same delta.
    assertEquals(profile, out.get("deltaRegionMass").asDouble(), 1e-3 * profile);
    assertTrue(profile <= 1e-3 * (1 + 1e-9), "calibrated sigma spends at most the delta asked for");
  }

  @Test
  void neighbours_laplace_lossStaysInTheEpsilonBand_andTheTestBoundHolds() {
    JsonNode out = ok("/v1/playground/neighbours?mechanism=laplace&epsilon=0.7&sensitivity=2");
    for (JsonNode l : out.get("loss")) {
      assertTrue(Math.abs(l.asDouble()) <= 0.7 + 1e-12, l.toString());
    }
    JsonNode t = out.get("hypothesisTest");
    assertEquals(1 - Math.exp(-0.35) / 2, t.get("bestAccuracy").asDouble(), 1e-12);
    assertEquals(Math.exp(0.7) / (1 + Math.exp(0.7)), t.get("bound").asDouble(), 1e-12);
    for (JsonNode s : t.get("sweep")) {
      assertTrue(s.get("bestAccuracy").asDouble() <= s.get("bound").asDouble() + 1e-12, s.toString());
    }
  }

  @Test
  void neighbours_geometric_isOnTheIntegers() {
    JsonNode out = ok("/v1/playground/neighbours?mechanism=geometric&epsilon=1&sensitivity=1");
    assertTrue(out.get("discrete").asBoolean());
    double sum = 0;
    for (JsonNode x : out.get("x")) {
      assertEquals(Math.rint(x.asDouble()), x.asDouble(), 0);
    }
    for (JsonNode p : out.get("densityD")) {
      sum += p.asDouble();
    }
    assertTrue(sum > 0.99 && sum <= 1 + 1e-9, "the p.m.f. on the shown integers sums to " + sum);
  }

  @Test
  void selection_exponential_observedFrequenciesFollowTheIdealLaw() {
    // 20000 draws: each frequency's standard error is <= 0.0036, so a 0.03 tolerance is more than
    // 8 standard errors (false failure < 1e-12 per candidate). Power: uniform selection (0.25 each)
    // misses the ideal 0.53 of the best candidate by far more than 0.03.
    JsonNode out = ok("/v1/playground/selection?mechanism=exponential&epsilon=1&sensitivity=1&utilities=3,5,6,7&trials=20000");
    double total = 0;
    for (JsonNode c : out.get("candidates")) {
      assertEquals(c.get("ideal").asDouble(), c.get("observed").asDouble(), 0.03, c.toString());
      total += c.get("observed").asDouble();
    }
    assertEquals(1.0, total, 1e-9);
    assertNotNull(out.get("candidates").get(3).get("ideal"));
  }

  @Test
  void badParameter_is400NamingIt() {
    for (String q : List.of("/v1/playground/neighbours?mechanism=laplace&epsilon=-1",
        "/v1/playground/composition?samplingRate=2",
        "/v1/playground/randomized-response?maxN=100000000",
        "/v1/playground/selection?utilities=1,x",
        "/v1/playground/neighbours?mechanism=geometric&sensitivity=1&epsilon=0.00001")) {
      Api.Response r = api.get(q, null);
      assertEquals(400, r.status(), q);
      JsonNode err = r.json().get("error");
      assertEquals("bad_request", err.get("code").asText());
      String param = q.replaceAll(".*[?&]([a-zA-Z]+)=[^&]*$", "$1");
      assertTrue(err.get("message").asText().contains(param), err.toString());
    }
  }
}
