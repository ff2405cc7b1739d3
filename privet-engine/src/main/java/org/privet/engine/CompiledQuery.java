package org.privet.engine;

import java.util.List;
import org.privet.accounting.PrivacyLoss;
import org.privet.engine.spi.BoundedAggregation;

/**
 * The compiler's output: what the backend runs and which noisy releases follow. {@code
 * releaseKeys}: with public groups, each listed key typed for its columns (null for a key no row
 * can have), in the query's order; else null.
 */
record CompiledQuery(Query query, NoiseKind noise, BoundedAggregation spec, List<Slot> slots,
    List<int[]> outputSlots, PartitionSelection selection, List<MechanismCost> costs,
    PrivacyLoss total, double conversionDelta, List<String> bounds,
    List<List<Object>> releaseKeys) {}
