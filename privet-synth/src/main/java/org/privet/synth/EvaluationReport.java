package org.privet.synth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Locale;

/**
 * A self-contained HTML report comparing a synthetic table with the real one: the workload error,
 * the per-marginal errors (worst first), and, for every attribute, an inline SVG bar chart of the
 * real and synthetic 1-way marginals. It shows real-data statistics, so it is for the data owner
 * only (it is not a DP release).
 */
public final class EvaluationReport {
  private EvaluationReport() {}

  /** Renders the report. */
  public static String html(Table real, Table synthetic, String workloadName, WorkloadError error) {
    var sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Privet synthetic data evaluation</title>")
        .append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}")
        .append("td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child{text-align:left}")
        .append(".chart{display:inline-block;margin:0 1em 1em 0;vertical-align:top}</style></head><body>\n");
    sb.append("<h1>Synthetic data evaluation</h1>\n");
    sb.append(String.format(Locale.ROOT,
        "<p>Real rows: %d; synthetic rows: %d; workload: %s (%d marginals).</p>%n",
        real.rows(), synthetic.rows(), escape(workloadName), error.perMarginal().size()));
    sb.append(String.format(Locale.ROOT,
        "<p><b>Workload error</b> (average L1 distance between normalized marginals, 0 = identical, 2 = disjoint): "
            + "<b>%.4f</b></p>%n", error.average()));
    sb.append("<p><span style=\"color:#1f77b4\">&#9632;</span> real &nbsp; <span style=\"color:#ff7f0e\">&#9632;</span> "
        + "synthetic</p>\n<h2>One-way marginals</h2>\n");
    Domain dom = real.domain();
    for (int a = 0; a < dom.size(); a++) {
      sb.append(chart(dom.attribute(a), real.marginal(new int[] {a}), real.rows(),
          synthetic.marginal(new int[] {a}), synthetic.rows()));
    }
    sb.append("<h2>Per-marginal error (worst first)</h2>\n<table><tr><th>marginal</th><th>L1 error</th></tr>\n");
    var sorted = new ArrayList<>(error.perMarginal());
    sorted.sort(Comparator.comparingDouble(WorkloadError.MarginalError::l1).reversed());
    for (var m : sorted) {
      sb.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.4f</td></tr>%n", escape(m.name()), m.l1()));
    }
    sb.append("</table>\n</body></html>\n");
    return sb.toString();
  }

  private static String chart(Attribute attr, double[] real, double nReal, double[] syn, double nSyn) {
    int k = real.length;
    int width = 360;
    int height = 140;
    double max = 1e-12;
    for (int i = 0; i < k; i++) {
      max = Math.max(max, Math.max(real[i] / nReal, syn[i] / nSyn));
    }
    double slot = (double) width / k;
    var sb = new StringBuilder();
    sb.append("<div class=\"chart\"><div><b>").append(escape(attr.name())).append("</b></div>");
    sb.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">", width, height + 2));
    sb.append(String.format(Locale.ROOT,
        "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>", height, width, height));
    for (int i = 0; i < k; i++) {
      double hr = real[i] / nReal / max * (height - 4);
      double hs = syn[i] / nSyn / max * (height - 4);
      double x = i * slot;
      double w = Math.max(0.5, slot / 2 - 0.2);
      sb.append(String.format(Locale.ROOT,
          "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#1f77b4\"><title>%s real %.4f</title></rect>",
          x, height - hr, w, hr, escape(attr.label(i)), real[i] / nReal));
      sb.append(String.format(Locale.ROOT,
          "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#ff7f0e\"><title>%s synthetic %.4f</title></rect>",
          x + w, height - hs, w, hs, escape(attr.label(i)), syn[i] / nSyn));
    }
    sb.append("</svg></div>\n");
    return sb.toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
