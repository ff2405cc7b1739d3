package org.privet.anonymity.attacks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A self-contained HTML report: text, tables and inline SVG charts. No script, no stylesheet or
 * font from the network: the file opens offline in any browser.
 */
public final class HtmlReport {
  /** One line of a chart: a name, x and y values (same length), and a CSS colour. */
  public record Series(String name, double[] x, double[] y, String colour, boolean dashed) {
    public Series(String name, double[] x, double[] y, String colour) {
      this(name, x, y, colour, false);
    }
  }

  private static final int W = 640;
  private static final int H = 320;
  private static final int ML = 64;
  private static final int MR = 150;
  private static final int MT = 30;
  private static final int MB = 46;

  private final StringBuilder body = new StringBuilder();
  private final String title;

  public HtmlReport(String title) {
    this.title = title;
  }

  public HtmlReport heading(String text) {
    body.append("<h2>").append(escape(text)).append("</h2>\n");
    return this;
  }

  public HtmlReport paragraph(String text) {
    body.append("<p>").append(escape(text)).append("</p>\n");
    return this;
  }

  /** A preformatted block (e.g. the text summary or the command behind a figure). */
  public HtmlReport pre(String text) {
    body.append("<pre>").append(escape(text)).append("</pre>\n");
    return this;
  }

  public HtmlReport table(List<String> header, List<List<String>> rows) {
    body.append("<table><tr>");
    header.forEach(h -> body.append("<th>").append(escape(h)).append("</th>"));
    body.append("</tr>\n");
    for (List<String> r : rows) {
      body.append("<tr>");
      r.forEach(c -> body.append("<td>").append(escape(c)).append("</td>"));
      body.append("</tr>\n");
    }
    body.append("</table>\n");
    return this;
  }

  /** A line chart (points joined) with axes, ticks and a legend. */
  public HtmlReport lineChart(String caption, String xLabel, String yLabel, List<Series> series,
      boolean logX) {
    double x0 = Double.POSITIVE_INFINITY;
    double x1 = Double.NEGATIVE_INFINITY;
    double y0 = Double.POSITIVE_INFINITY;
    double y1 = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (int i = 0; i < s.x().length; i++) {
        double x = logX ? Math.log10(s.x()[i]) : s.x()[i];
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, s.y()[i]);
        y1 = Math.max(y1, s.y()[i]);
      }
    }
    y0 = Math.min(y0, 0);
    if (y1 <= y0) {
      y1 = y0 + 1;
    }
    if (x1 <= x0) {
      x1 = x0 + 1;
    }
    StringBuilder svg = open(caption);
    axes(svg, x0, x1, y0, y1, xLabel, yLabel, logX);
    int li = 0;
    for (Series s : series) {
      StringBuilder pts = new StringBuilder();
      for (int i = 0; i < s.x().length; i++) {
        double x = logX ? Math.log10(s.x()[i]) : s.x()[i];
        pts.append(fmt(px(x, x0, x1))).append(',').append(fmt(py(s.y()[i], y0, y1))).append(' ');
      }
      svg.append("<polyline fill=\"none\" stroke=\"").append(s.colour()).append("\" stroke-width=\"2\"")
          .append(s.dashed() ? " stroke-dasharray=\"6 4\"" : "").append(" points=\"").append(pts).append("\"/>\n");
      if (s.x().length <= 30) {
        for (int i = 0; i < s.x().length; i++) {
          double x = logX ? Math.log10(s.x()[i]) : s.x()[i];
          svg.append("<circle r=\"3\" fill=\"").append(s.colour()).append("\" cx=\"")
              .append(fmt(px(x, x0, x1))).append("\" cy=\"").append(fmt(py(s.y()[i], y0, y1))).append("\"/>\n");
        }
      }
      legend(svg, li++, s.name(), s.colour());
    }
    return close(svg);
  }

  /**
   * Histograms of several samples on shared bins (bars side by side), e.g. the attacker's error
   * with exact and with DP answers.
   */
  public HtmlReport histogram(String caption, String xLabel, List<String> names, List<double[]> samples,
      List<String> colours, double lo, double hi, int bins) {
    double width = (hi - lo) / bins;
    double[][] counts = new double[samples.size()][bins];
    double top = 0;
    for (int s = 0; s < samples.size(); s++) {
      for (double v : samples.get(s)) {
        int b = (int) Math.floor((Math.min(Math.max(v, lo), hi) - lo) / width);
        counts[s][Math.min(bins - 1, Math.max(0, b))] += 1.0 / samples.get(s).length;
      }
      for (double c : counts[s]) {
        top = Math.max(top, c);
      }
    }
    StringBuilder svg = open(caption);
    axes(svg, lo, hi, 0, top, xLabel, "fraction of trials", false);
    double bw = (W - ML - MR) / (double) bins / samples.size();
    for (int s = 0; s < samples.size(); s++) {
      for (int b = 0; b < bins; b++) {
        double x = px(lo + b * width, lo, hi) + s * bw;
        double y = py(counts[s][b], 0, top);
        svg.append("<rect fill=\"").append(colours.get(s)).append("\" x=\"").append(fmt(x)).append("\" y=\"")
            .append(fmt(y)).append("\" width=\"").append(fmt(Math.max(bw - 0.5, 0.5))).append("\" height=\"")
            .append(fmt(H - MB - y)).append("\"/>\n");
      }
      legend(svg, s, names.get(s), colours.get(s));
    }
    return close(svg);
  }

  /** A horizontal-free bar chart: one bar per label, values in [0, max]. */
  public HtmlReport barChart(String caption, String yLabel, List<String> labels, double[] values,
      String colour, double max) {
    StringBuilder svg = open(caption);
    double top = max > 0 ? max : 1;
    axes(svg, 0, labels.size(), 0, top, "", yLabel, false);
    double bw = (W - ML - MR) / (double) labels.size();
    for (int i = 0; i < labels.size(); i++) {
      double y = py(values[i], 0, top);
      svg.append("<rect fill=\"").append(colour).append("\" x=\"").append(fmt(ML + i * bw + bw * 0.15))
          .append("\" y=\"").append(fmt(y)).append("\" width=\"").append(fmt(bw * 0.7)).append("\" height=\"")
          .append(fmt(H - MB - y)).append("\"/>\n");
      svg.append("<text font-size=\"11\" text-anchor=\"middle\" x=\"").append(fmt(ML + (i + 0.5) * bw))
          .append("\" y=\"").append(H - MB + 14).append("\">").append(escape(labels.get(i))).append("</text>\n");
      svg.append("<text font-size=\"11\" text-anchor=\"middle\" x=\"").append(fmt(ML + (i + 0.5) * bw))
          .append("\" y=\"").append(fmt(y - 4)).append("\">").append(escape(percent(values[i])))
          .append("</text>\n");
    }
    return close(svg);
  }

  /** The whole page. */
  public String html() {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
        + "</title>\n<style>body{font-family:sans-serif;max-width:900px;margin:2em auto;line-height:1.4}"
        + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;padding:3px 8px;"
        + "text-align:right}th{background:#eee}pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}"
        + "figure{margin:1em 0}figcaption{font-size:90%;color:#333}</style></head><body>\n<h1>"
        + escape(title) + "</h1>\n" + body + "</body></html>\n";
  }

  public void write(Path file) throws IOException {
    Files.writeString(file, html(), StandardCharsets.UTF_8);
  }

  /** A fraction as a percentage with one decimal, e.g. "14.6%". */
  public static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  private StringBuilder open(String caption) {
    body.append("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W).append("\" height=\"")
        .append(H).append("\" viewBox=\"0 0 ").append(W).append(' ').append(H).append("\" role=\"img\">\n");
    return new StringBuilder("<title>").append(escape(caption)).append("</title>\n");
  }

  private HtmlReport close(StringBuilder svg) {
    body.append(svg).append("</svg><figcaption>").append(escape(caption(svg))).append("</figcaption></figure>\n");
    return this;
  }

  private static String caption(StringBuilder svg) {
    int a = svg.indexOf("<title>") + 7;
    return unescape(svg.substring(a, svg.indexOf("</title>")));
  }

  private static void axes(StringBuilder svg, double x0, double x1, double y0, double y1, String xLabel,
      String yLabel, boolean logX) {
    svg.append("<line stroke=\"#000\" x1=\"").append(ML).append("\" y1=\"").append(H - MB).append("\" x2=\"")
        .append(W - MR).append("\" y2=\"").append(H - MB).append("\"/>\n");
    svg.append("<line stroke=\"#000\" x1=\"").append(ML).append("\" y1=\"").append(MT).append("\" x2=\"")
        .append(ML).append("\" y2=\"").append(H - MB).append("\"/>\n");
    for (int i = 0; i <= 4; i++) {
      double yv = y0 + (y1 - y0) * i / 4;
      double y = py(yv, y0, y1);
      svg.append("<text font-size=\"10\" text-anchor=\"end\" x=\"").append(ML - 4).append("\" y=\"")
          .append(fmt(y + 3)).append("\">").append(tick(yv)).append("</text>\n");
      svg.append("<line stroke=\"#ddd\" x1=\"").append(ML + 1).append("\" y1=\"").append(fmt(y)).append("\" x2=\"")
          .append(W - MR).append("\" y2=\"").append(fmt(y)).append("\"/>\n");
      if (!xLabel.isEmpty()) {
        double xv = x0 + (x1 - x0) * i / 4;
        svg.append("<text font-size=\"10\" text-anchor=\"middle\" x=\"").append(fmt(px(xv, x0, x1)))
            .append("\" y=\"").append(H - MB + 14).append("\">").append(tick(logX ? Math.rint(Math.pow(10, xv)) : xv))
            .append("</text>\n");
      }
    }
    svg.append("<text font-size=\"12\" text-anchor=\"middle\" x=\"").append((ML + W - MR) / 2).append("\" y=\"")
        .append(H - 8).append("\">").append(escape(xLabel)).append("</text>\n");
    svg.append("<text font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90)\" x=\"")
        .append(-(MT + H - MB) / 2).append("\" y=\"14\">").append(escape(yLabel)).append("</text>\n");
  }

  private static void legend(StringBuilder svg, int i, String name, String colour) {
    int y = MT + 10 + 18 * i;
    svg.append("<rect fill=\"").append(colour).append("\" x=\"").append(W - MR + 10).append("\" y=\"")
        .append(y - 9).append("\" width=\"12\" height=\"10\"/>\n");
    svg.append("<text font-size=\"11\" x=\"").append(W - MR + 26).append("\" y=\"").append(y).append("\">")
        .append(escape(name)).append("</text>\n");
  }

  private static double px(double x, double x0, double x1) {
    return ML + (x - x0) / (x1 - x0) * (W - ML - MR);
  }

  private static double py(double y, double y0, double y1) {
    return H - MB - (y - y0) / (y1 - y0) * (H - MT - MB);
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String tick(double v) {
    double a = Math.abs(v);
    if (a != 0 && (a >= 1e5 || a < 1e-2)) {
      return String.format(Locale.ROOT, "%.1e", v);
    }
    return a >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  /** A number as text: integral values without a decimal point. */
  public static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  private static String unescape(String s) {
    return s.replace("&quot;", "\"").replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&");
  }
}
