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
import { createTranslator, type Translator } from '../../core/i18n/translator.ts';
import type { LocationInfo, PublishedBusiness } from '../../core/schemas/published.ts';
import { locationPath, PATHS, servicePath, type ServiceUrls } from '../../core/urls.ts';

type Address = PublishedBusiness['address'];

function describeAddress(address: Address): object {
  return {
    '@type': 'PostalAddress',
    streetAddress: address.street,
    addressLocality: address.locality,
    addressRegion: address.region,
    postalCode: address.postal_code,
    addressCountry: address.country,
  };
}

/**
 * A location of the business (issue 43) as a `department` of it: schema.org's way to say a shop of a
 * multi-location business, with its own address and telephone when business.json gives them.
 */
function describeDepartment(location: LocationInfo, urls: ServiceUrls): object {
  return {
    '@type': 'HomeAndConstructionBusiness',
    '@id': `${urls.absolute(locationPath(location.id))}#location`,
    name: location.name,
    url: urls.absolute(locationPath(location.id)),
    ...(location.telephone === undefined ? {} : { telephone: location.telephone }),
    ...(location.address === undefined ? {} : { address: describeAddress(location.address) }),
    ...(location.service_areas === undefined ? {} : { areaServed: location.service_areas.map((name) => ({ '@type': 'Place', name })) }),
    parentOrganization: { '@id': `${urls.home}#business` },
  };
}

/** A location's own page: the location, part of the business. */
export function describeLocation(location: LocationInfo, urls: ServiceUrls): object {
  return { '@context': 'https://schema.org', ...describeDepartment(location, urls) };
}

export function describeBusiness(business: PublishedBusiness, urls: ServiceUrls, t: Translator = createTranslator()): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'HomeAndConstructionBusiness',
    '@id': `${urls.home}#business`,
    name: business.name,
    url: business.url,
    telephone: business.telephone,
    image: urls.absolute(PATHS.shareImage),
    address: describeAddress(business.address),
    areaServed: business.service_areas.map((name) => ({ '@type': 'Place', name })),
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: t.m.jsonLd.services,
      itemListElement: business.services.map((service) => ({
        '@type': 'Offer',
        itemOffered: { '@type': 'Service', name: service.name, url: urls.absolute(servicePath(service.id)) },
      })),
    },
    ...(business.locations === undefined ? {} : { department: business.locations.map((location) => describeDepartment(location, urls)) }),
  };
}

/** The reviews site itself, about the business. */
export function describeWebSite(business: PublishedBusiness, urls: ServiceUrls, t: Translator = createTranslator()): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    '@id': `${urls.home}#website`,
    name: t.fill(t.m.layout.siteName, { name: business.name }),
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
