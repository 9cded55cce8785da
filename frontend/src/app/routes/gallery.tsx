/** /gallery: the signed-in user's avatars. */
export { GalleryPage as Component } from '@/features/gallery/components/gallery-page';
