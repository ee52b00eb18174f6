/**
 * schema.org JSON-LD for the pages. The business is a `HomeAndConstructionBusiness`, the LocalBusiness
 * subtype that covers HVAC, plumbing and electrical work alike (the content does not say which trade).
 *
 * No `Review` or `AggregateRating` markup, on purpose: Google's review-snippet guidelines treat a
 * business's reviews of itself, published on its own pages, as self-serving (not eligible for LocalBusiness
 * or Organization), and forbid marking up reviews aggregated from other sites (Google, Yelp…). Every
 * review here is one or the other, so the stars are shown to people and published as data
 * (/reviews.json), but not claimed to search engines. docs/site.md "Structured data" says the same.
 */
import type { PublishedBusiness } from '../../core/schemas/published.ts';
import { PATHS, servicePath, type ServiceUrls } from '../../core/urls.ts';

export function describeBusiness(business: PublishedBusiness, urls: ServiceUrls): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'HomeAndConstructionBusiness',
    '@id': `${urls.home}#business`,
    name: business.name,
    url: business.url,
    telephone: business.telephone,
    image: urls.absolute(PATHS.shareImage),
    address: {
      '@type': 'PostalAddress',
      streetAddress: business.address.street,
      addressLocality: business.address.locality,
      addressRegion: business.address.region,
      postalCode: business.address.postal_code,
      addressCountry: business.address.country,
    },
    areaServed: business.service_areas.map((name) => ({ '@type': 'Place', name })),
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Services',
      itemListElement: business.services.map((service) => ({
        '@type': 'Offer',
        itemOffered: { '@type': 'Service', name: service.name, url: urls.absolute(servicePath(service.id)) },
      })),
    },
  };
}

/** The reviews site itself, about the business. */
export function describeWebSite(business: PublishedBusiness, urls: ServiceUrls): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    '@id': `${urls.home}#website`,
    name: `${business.name} reviews`,
    url: urls.home,
    about: { '@id': `${urls.home}#business` },
  };
}

/** BreadcrumbList of a page's trail (absolute URLs). */
export function describeBreadcrumbs(trail: readonly { href: string; label: string }[], urls: ServiceUrls): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.label, item: urls.absolute(crumb.href) })),
  };
}
