/**
 * Engine internals: private partition selection, which decides the groups a query may release
 * when the group keys are not public. {@link org.privet.engine.selection.PartitionSelection}
 * (Laplace, Gaussian and optimal thresholding), {@link
 * org.privet.engine.selection.SetUnionSelection} (DP set union) and {@link
 * org.privet.engine.selection.SelectionChoice} (which of them a query uses). Not an API: only
 * {@code org.privet.engine..} may use it (held by {@code EngineBoundaryTest}).
 */
package org.privet.engine.selection;
