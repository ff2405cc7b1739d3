/**
 * {@code privet account}: budget planning from the shell over the accountants of {@link
 * org.privet.accounting}.
 */
package org.privet.cli.account;
